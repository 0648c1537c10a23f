#!/usr/bin/env bash
# The main job until the demo exists: a test certificate, one test card encrypted to a compact JWE,
# the JWE decrypted as the service would, and the certificate inspected. Run: pnpm cli-round-trip
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "1. card-jwe cert: a test certificate and its private key"
pnpm exec card-jwe cert --out "$work" --days 30

echo; echo "2. card-jwe inspect"
pnpm exec card-jwe inspect --cert "$work/certificate.pem"

echo; echo "3. card-jwe encrypt: the processor's Visa test card, typed as a shopper would"
echo '{"number":"4111 1111 4555 1142","expiryMonth":"3","expiryYear":"30","cvc":"737","holderName":"A. Shopper"}' \
  | pnpm exec card-jwe encrypt --cert "$work/certificate.pem" | tee "$work/card.jwe"

echo; echo "4. card-jwe decrypt: what the service reads"
pnpm exec card-jwe decrypt --key "$work/private-key.pem" < "$work/card.jwe"

echo; echo "5. the same JWE against a zero-second window, standing in for a stale one: refused"
if pnpm exec card-jwe decrypt --key "$work/private-key.pem" --max-age 0 < "$work/card.jwe"; then
  echo "unexpected: a stale JWE was accepted" >&2
  exit 1
fi
echo; echo "round trip complete"
