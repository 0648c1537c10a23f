/**
 * House rules the formatter cannot enforce alone. Biome wraps code at 140 columns but leaves long
 * strings, template literals and comments as they are; this test holds every tracked source file
 * to the same width, so a long line fails here rather than in review.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const MAX_LINE_LENGTH = 140
const SOURCE_FILES = ['*.ts', '*.tsx', '*.mts', '*.cts', '*.js', '*.mjs', '*.cjs']

/** Files nobody writes by hand: build output and generated API docs. */
const GENERATED = [/(^|\/)dist\//, /^docs\/api\//]

function trackedSources(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...SOURCE_FILES], { cwd: ROOT, encoding: 'utf8' })
  return listed
    .split('\0')
    .filter((path) => path !== '')
    .filter((path) => !GENERATED.some((pattern) => pattern.test(path)))
}

it(`keeps every line of every tracked source file within ${MAX_LINE_LENGTH} characters`, () => {
  const files = trackedSources()
  expect(files.length).toBeGreaterThan(100)
  const tooLong = files.flatMap((path) =>
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .flatMap((line, index) => (line.length > MAX_LINE_LENGTH ? [`${path}:${index + 1} (${line.length} characters)`] : [])),
  )
  expect(tooLong).toEqual([])
})

it('names no tracker issue in a source file: code, tests and comments say what and why, not where it was asked', () => {
  const mentions = trackedSources().flatMap((path) =>
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .flatMap((line, index) => (/\bissues? #?\d+/i.test(line) ? [`${path}:${index + 1}`] : [])),
  )
  expect(mentions).toEqual([])
})

/** The back end's and the service stand-in's sources, where each feature once landed in the same few files. */
const ONE_JOB_FOLDERS = ['packages/shop-backend/src/', 'apps/sandbox/src/']
const MAX_FILE_LINES = 300

it(`keeps every source file of the shop back end and the sandbox within ${MAX_FILE_LINES} lines: one job per file`, () => {
  const files = trackedSources().filter((path) => ONE_JOB_FOLDERS.some((folder) => path.startsWith(folder)))
  expect(files.length).toBeGreaterThan(50)
  const tooLong = files.flatMap((path) => {
    const lines = readFileSync(join(ROOT, path), 'utf8').trimEnd().split('\n').length
    return lines > MAX_FILE_LINES ? [`${path} (${lines} lines)`] : []
  })
  expect(tooLong).toEqual([])
})
