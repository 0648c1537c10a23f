// Encrypts one card with the built card-jwe in whatever runtime runs this file (Node, Deno, Bun)
// and prints the JWE: the certificate comes as base64 PEM in argv[2], the card as JSON in argv[3].
import { encryptCard, importCertificate } from 'card-jwe'

const args = globalThis.Deno ? Deno.args : process.argv.slice(2)
const certificatePem = atob(args[0])
const card = JSON.parse(args[1])
const jwe = await encryptCard(card, await importCertificate(certificatePem))
console.log(jwe)
