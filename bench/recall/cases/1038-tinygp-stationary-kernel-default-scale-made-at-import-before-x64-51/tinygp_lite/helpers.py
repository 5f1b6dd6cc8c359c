from typing import Any

JAXArray = Any
