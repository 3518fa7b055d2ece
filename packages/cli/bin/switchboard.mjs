#!/usr/bin/env node
import process from 'node:process';
import { main } from '../src/main.mjs';

/** Every failure ends with a message and exit code 2 ("could not run"), never a stack trace. */
main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`Could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
