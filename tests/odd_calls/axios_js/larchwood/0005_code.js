// config with method, headers and body as the URL (axios delete({...}))
const axios = require('axios');

(async () => {
  const response = await axios.delete({
    method: 'DELETE',
    headers: { 'Content-Type': 'application/json' },
    body: { reason: 'damaged' }
  });
  console.log(response.data);
})();
