from mwe_lite.split import partition
