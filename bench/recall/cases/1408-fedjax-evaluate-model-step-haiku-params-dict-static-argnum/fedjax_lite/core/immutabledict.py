# A stand-in for the immutabledict package (not installed here): a read-only,
# hashable mapping.
from collections.abc import Mapping


class immutabledict(Mapping):

  def __init__(self, *args, **kwargs):
    self._dict = dict(*args, **kwargs)

  def __getitem__(self, key):
    return self._dict[key]

  def __iter__(self):
    return iter(self._dict)

  def __len__(self):
    return len(self._dict)

  def __hash__(self):
    return hash(tuple(sorted(self._dict.items(), key=lambda kv: kv[0])))
