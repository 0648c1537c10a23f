/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection<E extends Error = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise
  } catch (error) {
    return error as E
  }
  throw new Error('expected a rejection')
}
