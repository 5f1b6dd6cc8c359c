kx = 8          # Number of vertical levels
