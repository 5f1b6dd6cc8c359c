from dabench import data
