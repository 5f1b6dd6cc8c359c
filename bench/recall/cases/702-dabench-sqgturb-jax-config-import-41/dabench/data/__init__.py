from dabench.data.sqgturb import SQGTurb
