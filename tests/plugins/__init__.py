"""Games and players installed only for the tests, as a user's own packages would be."""
