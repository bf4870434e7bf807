// PLACEHOLDER: the Download stage lives here.
