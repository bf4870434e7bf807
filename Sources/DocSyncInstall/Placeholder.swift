// PLACEHOLDER: the Install stage lives here.
