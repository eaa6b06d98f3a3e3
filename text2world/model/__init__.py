"""Model calls: the litellm client and its response cache, the offline reference models, credentials."""
