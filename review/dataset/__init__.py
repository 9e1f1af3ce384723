"""The dataset formats: replaying dialogues into turns, checking their SQL, writing and reading the releases' files,
and the statistics a dataset paper reports. Services in `review.services` and reads in `review.selectors` drive it.
"""
