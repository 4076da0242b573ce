#!/bin/sh
# The test PKI of the PSP double (test/server/support/psp-double.ts): a CA, the double's server certificate (127.0.0.1,
# localhost), our client certificate, and a client certificate from a CA the double does not trust. Valid for 100 years,
# committed; run again (sh make.sh) only to replace them. Needs openssl.
set -eu
cd "$(dirname "$0")"
days=36500
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$tmp/ca.key" -out ca.pem -days $days -subj "/CN=Ramp test PSP CA" 2>/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$tmp/rogue-ca.key" -out "$tmp/rogue-ca.pem" -days $days -subj "/CN=Not the PSP's CA" 2>/dev/null
leaf() { # name, subject, extensions, signing CA
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1.key" -out "$tmp/$1.csr" -subj "$2" 2>/dev/null
  printf '%s\n' "$3" > "$tmp/$1.ext"
  openssl x509 -req -in "$tmp/$1.csr" -CA "$4.pem" -CAkey "$tmp/$4.key" -CAcreateserial -CAserial "$tmp/serial" -out "$1.pem" -days $days -extfile "$tmp/$1.ext" 2>/dev/null
}
leaf server "/CN=localhost" "subjectAltName=IP:127.0.0.1,DNS:localhost
extendedKeyUsage=serverAuth" ca
leaf client "/CN=ramp-test-client" "extendedKeyUsage=clientAuth" ca
cp "$tmp/rogue-ca.pem" rogue-ca.pem
leaf rogue-client "/CN=someone-else" "extendedKeyUsage=clientAuth" rogue-ca
rm rogue-ca.pem
