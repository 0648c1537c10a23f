/** Types of `postgres-process.mjs` (plain JavaScript, shared with the bench). */
export declare function postgresBinDir(): string | undefined
export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the admin connection (trust auth, loopback only). */
  readonly adminUrl: string
  /** `SELECT version()` of the running server. */
  readonly version: string
  readonly port: number
  /** Fast shutdown, then the data folder removed. */
  stop(): Promise<void>
  /** Stops the server, keeping its data: `SIGINT` a fast shutdown (default), `SIGQUIT` an immediate one (a crash). */
  halt(signal?: 'SIGINT' | 'SIGQUIT'): Promise<void>
  /** Starts it again on the same data and port (recovering from an immediate shutdown); resolves once it answers. */
  resume(): Promise<void>
}
export declare function startPostgres(options: { readonly bin: string; readonly durable: boolean }): Promise<RunningPostgres>
export declare function createDatabase(adminUrl: string, name: string): Promise<string>
