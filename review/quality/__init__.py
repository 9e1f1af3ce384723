"""Worker and expert quality: the worker profiles and blocking rules (services), and the quality pages."""
