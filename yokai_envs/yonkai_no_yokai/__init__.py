"""Yonkai no Yokai: a 3-4 player climbing/shedding game. See env.py for the tables."""
