// Node: prints the checks as JSON (run in the test app's folder).
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import * as api from 'patchlab';
import { checks } from './checks.mjs';

const glue = pathToFileURL(createRequire(import.meta.url).resolve('patchlab').replace(/patchlab\.js$/, 'patchlab_glue.js'));
console.log(JSON.stringify(await checks(api, () => import(glue))));
