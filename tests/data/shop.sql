-- A small schema used by the README quick start and tests/test_readme.py.
CREATE TABLE customers (
  id INT NOT NULL,
  name VARCHAR(100) NOT NULL,
  email VARCHAR(255)
);
CREATE TABLE orders (
  id INT NOT NULL,
  customer_id INT NOT NULL,
  note VARCHAR(500) NULL
);
