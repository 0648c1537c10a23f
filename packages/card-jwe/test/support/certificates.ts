import { inject } from 'vitest'
import type {} from '@card-jwe/testkit/vitest-global-setup'

/** The run's test certificates, made in Node by the global set-up; works in the browser too. */
export const certificates = inject('cardJweTestCertificates')
