"""Reading OpenAPI specs: documents, the judge's spec index, request validation against a spec."""
