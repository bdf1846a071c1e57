"""Sashigane (さしがね): divide the board into width-1 L pieces."""
