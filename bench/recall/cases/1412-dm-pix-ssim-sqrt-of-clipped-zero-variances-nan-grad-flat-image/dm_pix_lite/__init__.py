"""PIX (metrics only)."""
from dm_pix_lite._src import metrics

ssim = metrics.ssim
