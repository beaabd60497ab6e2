"""Adapters: the ports implemented on SQLite, DynamoDB and friends."""
