"""What a turn is labelled with: dialogue acts (`acts.py`), CHASE's intent relations between two turns' SQL
(`relations.py`, and the learned category: `relation_model.py` on `relation_features.py`), schema links
(`linking.py`) and utterance tokens (`tokens.py`).
"""
