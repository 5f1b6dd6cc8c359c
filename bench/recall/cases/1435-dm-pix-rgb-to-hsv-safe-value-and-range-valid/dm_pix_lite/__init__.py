"""PIX (colour conversion only)."""
from dm_pix_lite._src import color_conversion

rgb_to_hsv = color_conversion.rgb_to_hsv
