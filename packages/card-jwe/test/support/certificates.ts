import { testCertificates } from '@card-jwe/testkit/vitest'

/** The run's test certificates, made in Node by the global set-up; works in the browser too. */
export const certificates = testCertificates()
