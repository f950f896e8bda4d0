"""The records, errors, protocols and plugin machinery every stage shares."""
