/** The spec promises a pspReference only on final answers: a service may answer a step (an action) without it. */
export function withoutStepReferences(_method: string, _path: string, body: Buffer): Buffer {
  const answer = JSON.parse(body.toString() || '{}') as Record<string, unknown>
  if (answer.action === undefined) return body
  delete answer.pspReference
  return Buffer.from(JSON.stringify(answer))
}
