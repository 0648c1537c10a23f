#!/usr/bin/env node
// Thin launcher so the bin exists before the first build; the CLI itself is built from src/cli.
import { main } from '../dist/cli/main.js'

process.exitCode = await main(process.argv.slice(2))
