"""Throw-away X.509 material for TLS tests, made with the `openssl` command line in a temp dir.

``make_certs(dir)`` -> Certs with:
- ``ca`` / ``ca_key``: a self-signed CA;
- ``server`` / ``server_key``: signed by it, CN=localhost, SAN IP:127.0.0.1 and DNS:localhost
  (what ssl-mode=verify-identity checks for mysql://...@127.0.0.1);
- ``other_name`` / ``other_name_key``: signed by the same CA for another name only (verify-ca
  accepts it, verify-identity must not);
- ``wrong_ca``: a second, unrelated CA (verify-ca with it must fail).
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

# EC P-256 keys: made in milliseconds, where RSA-2048 takes ~0.5 s each
_KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1")


@dataclasses.dataclass(frozen=True)
class Certs:
    ca: Path
    ca_key: Path
    server: Path
    server_key: Path
    other_name: Path
    other_name_key: Path
    wrong_ca: Path


def _run(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _ca(d: Path, name: str) -> None:
    _run("req", "-x509", *_KEY, "-nodes", "-days", "2", "-keyout", f"{name}.key",
         "-out", f"{name}.pem", "-subj", f"/CN=mysqlddl test {name}",
         "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
         cwd=d)


def _leaf(d: Path, name: str, cn: str, san: str) -> None:
    _run("req", *_KEY, "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
         "-subj", f"/CN={cn}", cwd=d)
    (d / f"{name}.ext").write_text(f"subjectAltName={san}\nbasicConstraints=CA:FALSE\n"
                                   "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n")
    _run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
         "-days", "2", "-out", f"{name}.pem", "-extfile", f"{name}.ext", cwd=d)


def make_certs(d: Path) -> Certs:
    if shutil.which("openssl") is None:
        raise RuntimeError("the `openssl` command is needed to make the TLS test certificates")
    d.mkdir(parents=True, exist_ok=True)
    _ca(d, "ca")
    _ca(d, "wrongca")
    _leaf(d, "server", "localhost", "IP:127.0.0.1,DNS:localhost")
    _leaf(d, "other", "db.example", "DNS:db.example")
    for p in d.glob("*.key"):
        p.chmod(0o600)
    return Certs(ca=d / "ca.pem", ca_key=d / "ca.key", server=d / "server.pem", server_key=d / "server.key",
                 other_name=d / "other.pem", other_name_key=d / "other.key", wrong_ca=d / "wrongca.pem")
