"""The turn API: routes, request and response models, the one error mapping."""
