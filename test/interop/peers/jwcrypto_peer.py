"""JWE peer on python3-jwcrypto (Debian), for card-jwe interop tests.

decrypt KEY_PEM      < compact JWE  -> JSON {protectedRaw, header, payload, checks}
encrypt CERT_PEM ALG ENC  < payload -> compact JWE
The format checks run here, on the peer's side, with the peer's own parsing.
"""
import json
import re
import sys

from jwcrypto import jwe, jwk
from jwcrypto.common import base64url_decode, json_decode, json_encode

CHECKS = {
    'number': r'^[0-9]{12,19}$',
    'expiryMonth': r'^(0[1-9]|1[0-2])$',
    'expiryYear': r'^[0-9]{4}$',
    'cvc': r'^[0-9]{3,4}$',
    'generationtime': r'^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$',
}


def decrypt(key_path):
    key = jwk.JWK.from_pem(open(key_path, 'rb').read())
    token = sys.stdin.read().strip()
    obj = jwe.JWE()
    obj.allowed_algs = ['RSA-OAEP-256', 'A256GCM']
    obj.deserialize(token, key=key)
    payload = json_decode(obj.payload)
    checks = {name: bool(re.match(rule, payload.get(name, ''))) for name, rule in CHECKS.items()}
    print(json.dumps({
        'protectedRaw': base64url_decode(token.split('.')[0]).decode('utf-8'),
        'header': json_decode(obj.objects['protected']),
        'payload': payload,
        'checks': checks,
        'segments': len(token.split('.')),
        'padding': '=' in token,
    }))


def encrypt(cert_path, alg, enc):
    key = jwk.JWK.from_pem(open(cert_path, 'rb').read())
    token = jwe.JWE(sys.stdin.read().encode('utf-8'), json_encode({'alg': alg, 'enc': enc, 'version': '1'}))
    token.allowed_algs = [alg, enc]
    token.add_recipient(key)
    print(token.serialize(compact=True))


if __name__ == '__main__':
    if sys.argv[1] == 'decrypt':
        decrypt(sys.argv[2])
    else:
        encrypt(sys.argv[2], sys.argv[3], sys.argv[4])
