// task

fetch('https://api.larchwood-library.example/v2/books?' + new URLSearchParams({ q: 'tidal clocks', published_after: 2015, offset: 20.0 }), { headers: { 'X-Api-Key': '<key>' } });
