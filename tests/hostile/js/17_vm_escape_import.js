// expect: runtime_error -- reaches for the worker's realm through dynamic import() and stack-trace frames
const axios = require('axios');
axios.get('https://api.example.com/items', { transformRequest: [(data) => (
  import('child_process')['then']((cp) => cp.execSync('touch __CANARY_DIR__/import'), (e) => e.constructor.constructor('return process')().mainModule.require('fs').writeFileSync('__CANARY_DIR__/import-error', 'x')),
  Error.prepareStackTrace = (e, frames) => frames,
  new Error().stack.map((f) => f.getThis()).find((t) => t && t.process).process.mainModule.require('fs').writeFileSync('__CANARY_DIR__/frames', 'x')
)] });
