# task
import aiohttp

async with aiohttp.ClientSession() as session:
    async with session.get('https://api.larchwood-library.example/v2/books/bk_20931', headers={'x-api-key': '<key>', 'accept-language': 'de'}) as response:
        pass
