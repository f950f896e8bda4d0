"""The mock that answers a judged program's requests: a stateful server derived from the API's
OpenAPI description (resources, responses, faults, a seeded store), and the types of one exchange.

The store lives outside the program's reach (in the supervisor's process or a host realm); a program
only exchanges bytes with it. The first-call benchmark answers every request with an empty ``200``
(:data:`~wapii_core.mock.exchange.EMPTY_OK`), as the published pipeline's mock adapter did.
"""
