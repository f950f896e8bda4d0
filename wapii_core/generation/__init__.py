"""Generation: prompts (retrieval-augmented ones too), the core's backends, the response cache."""
