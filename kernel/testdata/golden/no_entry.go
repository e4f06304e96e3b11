package helpers

func Helper() int { return 1 }
