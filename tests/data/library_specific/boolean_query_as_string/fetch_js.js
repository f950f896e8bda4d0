// task

fetch('https://api.larchwood-library.example/v2/books?' + new URLSearchParams({ author: 'Okafor', genre: 'mystery', available: 'true', limit: 10 }), { headers: { 'X-Api-Key': '<key>' } });
