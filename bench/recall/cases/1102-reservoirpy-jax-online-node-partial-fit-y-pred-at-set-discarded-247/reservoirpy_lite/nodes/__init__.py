from .lms import LMS
