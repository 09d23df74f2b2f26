// The page's script (Vite dev, Vite build, plain page with an import map).
import * as api from 'patchlab';
import { checks } from './checks.mjs';

const out = document.getElementById('out');
const glueUrl = document.documentElement.dataset.glue;
checks(api, glueUrl ? () => import(/* @vite-ignore */ glueUrl) : undefined).then(
  (result) => {
    out.textContent = JSON.stringify(result);
  },
  (error) => {
    out.textContent = JSON.stringify({ failed: `${error?.name}: ${error?.message}` });
  },
);
