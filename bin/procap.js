#!/usr/bin/env node
// The `procap` command of the npm package: runs the compiled command line (dist/src/cli/main.js)
// with this process's arguments and exits with its code. Build first (`npm run build`) when running
// it from a checkout.
import { main, installSignalHandlers } from '../dist/src/cli/main.js';

installSignalHandlers();
process.exitCode = await main(process.argv.slice(2));
