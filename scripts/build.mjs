#!/usr/bin/env node
import { ensureBuild, ensureDependencies } from './lib.mjs';

ensureDependencies();
ensureBuild({ force: process.argv.includes('--force') });
