import { ServiceError } from '@card-jwe/service-client'

/** The ServiceError a call ends in; fails the test if it succeeds or fails otherwise. */
export async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ServiceError) return error
    throw error
  }
  throw new Error('expected a ServiceError')
}
