from physionet_lite.physionet_data import get_data_min_max, process_batch

__all__ = ["get_data_min_max", "process_batch"]
