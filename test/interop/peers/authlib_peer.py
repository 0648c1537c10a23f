"""JWE peer on python3-authlib (Debian): decrypt KEY_PEM < compact JWE -> JSON {header, payload}."""
import json
import sys

from authlib.jose import JsonWebEncryption

token = sys.stdin.read().strip().encode('ascii')
data = JsonWebEncryption(algorithms=['RSA-OAEP-256', 'A256GCM']).deserialize_compact(token, open(sys.argv[2], 'rb').read())
print(json.dumps({'header': data['header'], 'payload': json.loads(data['payload'])}))
