export { startSandbox } from './start-sandbox.js'
export type { RunningSandbox, SandboxOptions } from './start-sandbox.js'
export { CHALLENGE_ANSWER } from './pages/threeds.js'
export { REGISTRATION_PATH, SETTINGS_BATCH_PATH, SETTINGS_PATH } from './handlers/registration.js'
