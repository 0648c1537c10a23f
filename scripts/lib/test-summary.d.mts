export interface Counts {
  passed: number
  failed: number
  skipped: number
}
export interface RunSummary {
  projects: Record<string, Counts>
  problems: string[]
  /** each failed test, "project: file > name: first line of its error" */
  failedTests?: string[]
}
export interface ModuleRecord {
  project: string
  file: string
  /** the first error outside the file's tests, when there was one */
  failedOutsideTests: string | undefined
  /** each test's state */
  states: readonly string[]
  /** each failed test's full name and the first line of its first error */
  failures?: ReadonlyArray<{ name: string; error: string }>
}
export function countRun(modules: readonly ModuleRecord[], unhandledErrors: readonly string[], interrupted: string | undefined): RunSummary
export function combineRuns(runs: ReadonlyArray<{ label: string; exitCode: number | null; summary: RunSummary | undefined }>): {
  lines: string[]
  total: Counts
}
export function closingLine(total: Counts): string
