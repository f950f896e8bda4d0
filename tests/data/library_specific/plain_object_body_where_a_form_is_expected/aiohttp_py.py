# task
import aiohttp

async with aiohttp.ClientSession() as session:
    async with session.post('https://api.larchwood-library.example/v2/loans/ln_6620/return', data={'condition': 'worn'}, headers={'Authorization': 'Bearer <token>'}) as response:
        pass
