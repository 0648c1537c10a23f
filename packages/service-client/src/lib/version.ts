/** This package's name and version, as its tracer and meter name themselves (a test keeps it equal to package.json). */
export const PACKAGE = Object.freeze({ name: '@card-jwe/service-client', version: '0.1.0' })
