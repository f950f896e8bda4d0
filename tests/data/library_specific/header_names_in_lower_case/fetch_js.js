// task

fetch('https://api.larchwood-library.example/v2/books/bk_20931', { headers: { 'x-api-key': '<key>', 'accept-language': 'de' } });
