# task
import httpx

httpx.get('https://api.larchwood-library.example/v2/books', params={'author': 'Okafor', 'genre': 'mystery', 'available': True, 'limit': 10}, headers={'X-Api-Key': '<key>'})
